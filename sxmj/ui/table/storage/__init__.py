"""What the page keeps on the device: its formats, checked, and their reading and writing."""
