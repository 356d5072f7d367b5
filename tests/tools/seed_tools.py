"""The tool examples from the seed documents (../shared/seeds), used by several tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from jupyter_mcp.tools import ToolError, ToolResult, ToolServer


def add(a: int, b: int) -> int:
    """Adds two integer numbers together."""
    return a + b


def search_products_implementation(query: str, category: str | None = None) -> list[dict]:
    """Internal function description (ignored if description is provided above)."""
    print(f"Searching for '{query}' in category '{category}'")
    return [{"id": 2, "name": "Another Product"}]


def process_image_docstring(image_url: str, resize: bool = False, width: int = 800) -> dict:
    """Process an image with optional resizing.

    Args:
        image_url: URL of the image to process.
        resize: Whether to resize the image.
        width: Target width in pixels.

    Returns:
        A description of the processed image.

    Raises:
        ValueError: If the URL is empty.
    """
    return {"url": image_url, "resize": resize, "width": width}


def process_image_annotated(
    image_url: Annotated[str, "URL of the image to process"],
    resize: Annotated[bool, "Whether to resize the image"] = False,
    width: Annotated[int, "Target width in pixels"] = 800,
    format: Annotated[str, "Output image format"] = "jpeg",
) -> dict:
    """Process an image with optional resizing."""
    return {"url": image_url, "width": width, "format": format}


def process_image_field(
    image_url: Annotated[str, Field(description="URL of the image to process")],
    resize: Annotated[bool, Field(description="Whether to resize the image")] = False,
    width: Annotated[int, Field(description="Target width in pixels", ge=1, le=2000)] = 800,
    format: Annotated[Literal["jpeg", "png", "webp"], Field(description="Output image format")] = "jpeg",
) -> dict:
    """Process an image with optional resizing."""
    return {"url": image_url, "width": width, "format": format}


def analyze_text(text: str, max_tokens: int = 100, language: str | None = None) -> dict:
    """Analyze the provided text."""
    return {"length": len(text), "max_tokens": max_tokens, "language": language}


def search_products(
    query: str, max_results: int = 10, sort_by: str = "relevance", category: str | None = None
) -> list[dict]:
    """Search the product catalog."""
    return [{"query": query, "max_results": max_results, "sort_by": sort_by, "category": category}]


@dataclass
class Person:
    name: str
    age: int
    email: str


def get_user_profile(user_id: str) -> Person:
    """Get a user's profile information."""
    return Person(name="Alice", age=30, email="alice@example.com")


class Quote(BaseModel):
    symbol: str
    price: float
    currency: str = "USD"


def get_quote(symbol: str) -> Quote:
    """Look up a stock quote."""
    return Quote(symbol=symbol.upper(), price=42.0)


def divide(a: float, b: float) -> float:
    """Divide a by b."""
    if b == 0:
        raise ToolError("Division by zero is not allowed.")
    return a / b


def get_config() -> ToolResult:
    """Returns configuration as YAML."""
    data = {"api_key": "abc123", "debug": True, "rate_limit": 100}
    text = "".join(f"{k}: {str(v).lower() if isinstance(v, bool) else v}\n" for k, v in data.items())
    return ToolResult(content=text, structured_content=data, meta={"execution_time_ms": 145})


def seed_server(**options: object) -> ToolServer:
    server = ToolServer("seeds", **options)  # type: ignore[arg-type]
    server.add_tool(add)
    server.add_tool(
        search_products_implementation,
        name="find_products",
        description="Search the product catalog with optional category filtering.",
        tags={"catalog", "search"},
        meta={"version": "1.2", "author": "product-team"},
    )
    for fn in (process_image_docstring, process_image_annotated, process_image_field, analyze_text):
        server.add_tool(fn)
    server.add_tool(search_products, annotations={"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False})
    for fn in (get_user_profile, get_quote, divide, get_config):
        server.add_tool(fn)
    return server
