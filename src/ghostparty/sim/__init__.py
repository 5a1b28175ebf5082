"""Simulations over the rules core: random playouts and the engine benchmark."""
