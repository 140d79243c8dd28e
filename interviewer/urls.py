"""Credentials written into a URL (``http://user:key@host/v1``) are for the request only.

Every URL that is stored (the session database, the embedding cache), printed (errors,
reports) or put into a model id (batch results) goes through :func:`redact_url`; the client
that makes the request gets the credentials as an ``Authorization`` header instead
(:func:`split_credentials`), which is what the URL form meant.
"""

from __future__ import annotations

import base64
import re
from urllib.parse import unquote, urlsplit, urlunsplit

# scheme://userinfo@ : userinfo has no "/", "@" or whitespace
_USERINFO = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\s]*@")


def redact_url(text: str | None) -> str | None:
    """``text`` with the userinfo of every URL in it removed (a URL, a model id, a message)."""
    if text is None:
        return None
    return _USERINFO.sub(r"\1", text)


def split_credentials(url: str) -> tuple[str, dict[str, str]]:
    """``(url without userinfo, headers)``: HTTP Basic auth for ``user:password@``."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url, {}
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    token = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
    headers = {"Authorization": "Basic " + base64.b64encode(token.encode("utf-8")).decode()}
    return urlunsplit(parts._replace(netloc=netloc)), headers
