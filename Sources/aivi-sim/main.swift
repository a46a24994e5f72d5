print("aivi-sim: not yet built")
