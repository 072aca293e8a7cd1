/**
 * <b>Public API.</b> The remote model providers over LangChain4j and {@code engram.yaml}: {@link
 * dev.engram.langchain4j.Providers}, {@link dev.engram.langchain4j.ChatModelLanguageModel} (any
 * LangChain4j {@code ChatModel} as a {@link dev.engram.spi.LanguageModel}), {@link
 * dev.engram.langchain4j.SettingsLoader}, {@link dev.engram.langchain4j.EngramSettings} and {@link
 * dev.engram.langchain4j.PipelineAssembly}. The YAML settings live here, with the providers they
 * configure; a library user of the core needs neither.
 */
package dev.engram.langchain4j;
