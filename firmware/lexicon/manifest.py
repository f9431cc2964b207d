# micropython-lib style manifest; `metadata` and `package` come from the manifest loader.
metadata(description="Reader of the tileclock word graph image (docs/wordlist-format.md) through a block cache.", version="0.1.0")

package("lexicon")
