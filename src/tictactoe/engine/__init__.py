"""The computer player."""
