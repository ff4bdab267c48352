"""Clinic Assistant engine: the Qt-free core shared by the kiosk and the staff app.

Nothing in this package (outside ``engine.qt``) may import Qt or either app.
"""

__version__ = "0.1.0"
