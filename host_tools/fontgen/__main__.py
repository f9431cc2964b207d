import sys

from host_tools.fontgen import main

sys.exit(main())
