"""See DESIGN.md for this layer's role."""
