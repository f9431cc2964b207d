# micropython-lib style manifest; `metadata` and `package` come from the manifest loader.
metadata(description="Game clock engine: count-down, overtime, challenge window, presets, game log.", version="0.1.0")

package("clock")
