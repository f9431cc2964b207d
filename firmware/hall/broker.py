# The broker's address in the setting `hall`: mqtt://HOST:PORT (PORT 1883 if left out).


def parse(text):
    """(host, port) of mqtt://HOST[:PORT]; ValueError with the reason."""
    if not isinstance(text, str) or not text.startswith("mqtt://"):
        raise ValueError("mqtt://HOST:PORT, e.g. mqtt://192.168.1.10:1883")
    rest = text[7:]
    if rest.endswith("/"):
        rest = rest[:-1]
    host, port = rest, 1883
    if ":" in rest:
        host, number = rest.rsplit(":", 1)
        if not number.isdigit() or not 1 <= int(number) <= 65535:
            raise ValueError("port %r: a number 1-65535" % number)
        port = int(number)
    if not host or len(host) > 253:
        raise ValueError("no host name or address")
    for ch in host:
        if not ("a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9" or ch in "-."):
            raise ValueError("host %r: letters, digits, '-' and '.' only" % host)
    return host, port
