/**
 * <b>Public API.</b> Long-term memory for LangChain4j AI services over any {@link
 * dev.engram.Memory}: {@link dev.engram.langchain4j.memory.EngramContentRetriever}, {@link
 * dev.engram.langchain4j.memory.EngramRetrieval}, {@link
 * dev.engram.langchain4j.memory.EngramChatMemoryStore} and {@link
 * dev.engram.langchain4j.memory.EngramMemoryTools}.
 */
package dev.engram.langchain4j.memory;
