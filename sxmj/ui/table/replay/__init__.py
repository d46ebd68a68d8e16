"""Records at the table: export, import and the replay that watches them."""
