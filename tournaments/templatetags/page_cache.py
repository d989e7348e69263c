"""`{% pagecache page %}...{% endpagecache %}`: the enclosed content comes from `page` (a
tournaments.page_cache.PublicPage) when it holds it, else it is rendered once and stored there.
Without a `page` in the context (None) the content is simply rendered."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import mark_safe

register = template.Library()


class PageCacheNode(template.Node):
    def __init__(self, nodelist: NodeList, page: FilterExpression) -> None:
        self.nodelist = nodelist
        self.page = page

    def render(self, context: Any) -> str:
        page = self.page.resolve(context, ignore_failures=True)
        if page is None:
            return self.nodelist.render(context)
        return mark_safe(page.content(lambda: str(self.nodelist.render(context))))  # noqa: S308 (rendered HTML)


@register.tag("pagecache")
def do_pagecache(parser: Parser, token: Token) -> PageCacheNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% pagecache page %} takes one argument.")
    nodelist = parser.parse(("endpagecache",))
    parser.delete_first_token()
    return PageCacheNode(nodelist, parser.compile_filter(bits[1]))
