"""Play with friends: the room's lobby, transport and the host's and a guest's side of the
table in the page (the room's rules are :mod:`sxmj.room`, in the core)."""
