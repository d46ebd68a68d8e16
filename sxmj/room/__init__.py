"""The friends room: one browser hosts the match, the others join by a link (see protocol)."""
