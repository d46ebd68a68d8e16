"""The daily challenge (每日挑战) at the table: its session, its card, its history and its par."""
