import sys

from host_tools.sim import main

sys.exit(main())
