"""The game page (index.html): the table, its controller, its sessions and its comforts."""
