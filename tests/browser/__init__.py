"""Tests of ttt-web's page in a real browser (Playwright driving Debian's Chromium): run by
.ci/browser, skipped where either is missing."""
