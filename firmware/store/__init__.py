# Storage on the device: configuration (config.json), the game state for
# power-loss recovery (esp32.NVS), the game log file.  Submodules are imported
# by name: store.config, store.state, store.gamelog, store.files.
