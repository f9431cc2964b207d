"""wordpack: word lists to a compact word graph image (minimal DAWG over tiles).

Standard library only. See docs/packer.md and docs/wordlist-format.md.
"""

from .image import Image, ImageError
from .normalise import Profile

__all__ = ["Image", "ImageError", "Profile", "__version__"]
__version__ = "3.0"
