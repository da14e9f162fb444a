"""Tic-Tac-Toe and Ultimate Tic-Tac-Toe."""
