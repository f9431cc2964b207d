# The device side of the host link (docs/link-protocol.md).
#
#   from link.handler import LinkHandler
#   from link.server import serve
#   asyncio.create_task(serve(sys.stdin.buffer, sys.stdout.buffer, LinkHandler(services)))
