"""One cog per feature, loaded by the client as extensions."""
