/**
 * <b>Public API.</b> The MCP server over a {@link dev.engram.Memory}: {@link
 * dev.engram.mcp.McpStdioServer} and {@link dev.engram.mcp.McpHttpEndpoint}.
 */
package dev.engram.mcp;
