"""Learning Ultimate: puzzles with proven answers (`puzzles`, their API and pages) and the lessons
of `/learn`. The puzzles' proofs are data (`puzzles.jsonl`, mined by training/mine_puzzles.py);
judging an attempt needs only the rules library."""
