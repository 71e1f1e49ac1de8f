// The server's JSON API (sim/web/app.py): requests, and jobs polled until they end.

export const PAGE = (crypto.randomUUID ? crypto.randomUUID()
  : String(Math.random()).slice(2) + String(Date.now()));

// The page going away cancels its running job (the server also does after 20 s without a poll).
addEventListener("pagehide", () => navigator.sendBeacon(`/api/pages/${PAGE}/gone`));

export class ApiError extends Error {}

async function answer(resp) {
  let data;
  try { data = await resp.json(); } catch { data = { error: `Error: HTTP ${resp.status}` }; }
  if (!resp.ok || (data && data.state === "error")) throw new ApiError(data.error || `Error: HTTP ${resp.status}`);
  return data;
}

export async function post(path, body) {
  return answer(await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  }));
}

export async function get(path) { return answer(await fetch(path)); }

// Start a job and poll it: onUpdate(view) for every poll; resolves with the last view.
export class Job {
  constructor(command, options, onUpdate) {
    this.command = command; this.options = options; this.onUpdate = onUpdate;
    this.id = null; this.stopped = false;
  }
  async run() {
    const view = await post("/api/jobs", { page: PAGE, command: this.command, options: this.options });
    this.id = view.job;
    for (;;) {
      await new Promise((r) => setTimeout(r, 300));
      const v = await get(`/api/jobs/${this.id}?page=${PAGE}`);
      this.onUpdate(v);
      if (v.state !== "running") return v;
    }
  }
  async cancel() {
    if (this.id) await post(`/api/jobs/${this.id}/cancel?page=${PAGE}`, {});
  }
}
