/**
 * <b>Public API.</b> {@link dev.engram.neo4j.Neo4jGraphStore} with {@link
 * dev.engram.neo4j.Neo4jSettings}; other classes are internal.
 *
 * <p>The graph memory on Neo4j 5 (5.18 or later for {@code vector.similarity.cosine}; tested on
 * 5.26 LTS) over Bolt, through the Apache-2.0 {@code neo4j-java-driver}. Entry point: {@link
 * dev.engram.neo4j.Neo4jGraphStore}.
 *
 * <p>Graph model in the database: nodes {@code :Entity} and relationships {@code :RELATES}, every
 * one carrying its {@code tenant} and scope ids; the relation name is a property, never a
 * relationship type, so no Cypher is ever built from data. Every query is parameterised.
 */
package dev.engram.neo4j;
