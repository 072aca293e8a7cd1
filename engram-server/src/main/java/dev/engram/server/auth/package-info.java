/** <b>Internal.</b> API keys and tenants of {@code EngramServer}. Not part of the public API. */
package dev.engram.server.auth;
