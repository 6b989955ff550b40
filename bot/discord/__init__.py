"""The Discord adapter: the client, the cogs, the desk, the buttons, the loop."""
