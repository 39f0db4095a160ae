"""The documentation site builds with ``mkdocs build --strict``: no broken link, missing page or bad reference."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.docs.blocks import DOCS, ROOT


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    config = ROOT / "mkdocs.yml"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "No module named mkdocs" not in done.stderr, "mkdocs is missing: pip install -e '.[dev]' (the docs extra)"
    assert done.returncode == 0, done.stdout + done.stderr
    assert (site / "index.html").is_file()
    assert (site / "api" / "g2048" / "index.html").is_file()
    reference = (site / "api" / "g2048" / "index.html").read_text(encoding="utf-8")
    assert 'id="plyground.g2048.expectimax.Expectimax"' in reference  # the reference is generated, not empty
    # The docstrings' Sphinx roles are cross-references (docs/hooks/roles.py), never raw text: in Markdown a
    # role reads :class:<code>State</code>, or :mod:`name` in a code block.
    raw = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const):(?:<code>|`)")
    left = {
        page.relative_to(site).as_posix(): len(raw.findall(page.read_text(encoding="utf-8")))
        for page in site.rglob("*.html")
    }
    assert not {page: count for page, count in left.items() if count}, "raw Sphinx roles in the site"
    # :func:`root_groups` in expectimax is a link, to where it is defined, titled with the last part of the name.
    assert 'href="#plyground.g2048.sharing.root_groups"><code>root_groups</code></a>' in reference


def test_every_page_is_in_the_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = [path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")]
    missing = [page for page in pages if page not in config]
    assert not missing, f"pages missing from mkdocs.yml's nav: {missing}"
