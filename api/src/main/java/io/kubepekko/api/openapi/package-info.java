/**
 * OpenAPI v3 documents generated from the registry ({@code /openapi/v3} and its group-version
 * documents). Pure: no I/O, no Pekko; the HTTP layer serves the bytes and ETags built here.
 */
package io.kubepekko.api.openapi;
