/**
 * The node agent: registers its Node, heartbeats, and runs the pods bound to it (and static pods)
 * through a CRI runtime. It is a client of the API like any other and never reaches into the
 * server's modules. Pure logic (pod spec to runtime configuration, status from observed state,
 * back-off, probes, manifests) lives in packages without actors; actors hold state and order.
 */
package io.kubepekko.agent;
