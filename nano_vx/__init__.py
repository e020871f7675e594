"""nano-vx: a nanopass compiler for the Vx language."""
