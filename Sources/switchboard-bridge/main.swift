import BridgeCore

print("switchboard-bridge: not yet wired")
