"""Simulations over the rules core: random playouts, the engine benchmark, think time per bot, tournaments."""
