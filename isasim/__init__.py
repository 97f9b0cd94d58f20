"""isasim: an RV32IMFC + Xpulp cluster simulator."""
