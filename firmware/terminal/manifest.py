# micropython-lib style manifest; `metadata` and `package` come from the manifest loader.
# Needs the `lexicon` package beside it (firmware/manifest.py freezes both).
metadata(description="Challenge terminal: keypad word entry, challenge flow, referee menu, challenge log.", version="0.1.0")

package("terminal")
