/**
 * Pod disruption: the rules of the {@code pods/{name}/eviction} subresource ({@link EvictionRules})
 * and the disruption controller's arithmetic over PodDisruptionBudgets ({@link DisruptionStatus}),
 * pure over the objects' JSON, as kube-apiserver's {@code EvictionREST} and
 * kube-controller-manager's disruption controller decide them.
 */
package io.kubepekko.api.policy;
