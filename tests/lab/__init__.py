"""Tests of the lab (src/ttt_rl/lab/): one module per lab module."""
