"""Weiss Schwarz (ヴァイスシュヴァルツ): the turn flow."""
