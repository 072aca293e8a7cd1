/**
 * <b>Public API.</b> Spring Boot auto-configuration ({@link
 * dev.engram.spring.EngramAutoConfiguration}, {@link dev.engram.spring.EngramProperties}), the
 * health indicator and the Spring AI advisor ({@link dev.engram.spring.EngramMemoryAdvisor}).
 */
package dev.engram.spring;
