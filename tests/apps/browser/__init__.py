"""Tests of a 2048 web page of our own, served locally and driven in headless Chromium."""
