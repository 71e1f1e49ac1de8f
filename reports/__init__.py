"""Reports: pandas tables and matplotlib figures built from results."""
