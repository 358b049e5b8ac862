"""ガンナガン (Gun and Gun) played with the coin-toss variant."""
