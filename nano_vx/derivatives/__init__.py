"""What differentiate-forward and differentiate-reverse write their functions with, apart
from the passes themselves: the sites and the functions they differentiate
(differentiation.py), the Lrouted code derivatives are made of (code.py), the tangent rules
of arithmetic and the math built-ins (tangent_rules.py), the form an adjoint is written from
(adjoint_form.py), and the adjoint's two sweeps (forward_sweep.py, reverse_sweep.py).
"""
