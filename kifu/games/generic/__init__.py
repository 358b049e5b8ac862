"""The ``generic`` game: imported chat, dice and notes of any game kifu does not audit yet."""
