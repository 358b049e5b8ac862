"""The fan-made World Trigger 1v1 dice game (ボーダー隊員ソロランク戦ゲーム)."""
