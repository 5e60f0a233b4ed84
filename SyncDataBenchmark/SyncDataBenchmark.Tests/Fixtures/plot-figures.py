#!/usr/bin/env python3
"""plot-figures.py PLOT_PY TABLES_JSON OUT_DIR: runs bench/plot.py as the runner does and prints, as JSON, what each
picture drew (by file name: the title, and per panel its title, tick labels (y and x), texts and lines), read from the figure
as plot.py saves it, so PlotTests judge the drawing itself rather than the PNG's pixels."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
from matplotlib.colors import to_hex  # noqa: E402

script, tables, out = sys.argv[1:4]
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
import plot  # noqa: E402

drawn = {}
save = plot.save


def described(fig, path, **savefig_args):
    title = getattr(fig, "_suptitle", None)
    drawn[os.path.basename(path)] = {
        "title": title.get_text() if title else "",
        "axes": [{
            "title": ax.get_title(),
            "yticklabels": [t.get_text() for t in ax.get_yticklabels()],
            "xticklabels": [t.get_text() for t in ax.get_xticklabels()],
            "texts": [t.get_text() for t in ax.texts],
            "lines": [{"label": line.get_label(), "color": to_hex(line.get_color()), "linestyle": line.get_linestyle(),
                       "marker": str(line.get_marker())} for line in ax.get_lines()],
        } for ax in fig.axes],
    }
    save(fig, path, **savefig_args)


plot.save = described
sys.argv = [script, tables, "--out", out]
code = plot.main()
json.dump(drawn, sys.stdout)
sys.exit(code)
