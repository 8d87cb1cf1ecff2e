"""Drop-in layers that speak other tools' APIs on top of the engine."""
