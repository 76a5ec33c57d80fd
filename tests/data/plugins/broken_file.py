raise RuntimeError("this plug-in file fails on import")
