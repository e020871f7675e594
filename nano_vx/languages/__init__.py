"""The front-end ILs, each a delta of the one before."""

from .l0_source import Lsrc
from .l0_one_file import Lonefile
from .l0_shaped import Lshaped
from .l0_plain import Lplain
from .l0_loops import Lwhile
from .l0_unpacked import Lunpacked
from .l1_hoisted import Lhoisted
from .l1_flat import Lflat
from .l1_paths import Lpaths
from .l2_unrolled import Lunrolled
from .l3_transfers import Ltransfers
from .l4_resolved import Lresolved
from .lerased import Lerased
from .linstances import Linstances
from .l5_monomorphic import Lmono
from .l6_typed import Ltyped
from .l7_folded import Lfolded
from .l8_routed import Lrouted
from .l9_scheduled import Lscheduled

__all__ = ["Lsrc", "Lonefile", "Lshaped", "Lplain", "Lwhile", "Lunpacked", "Lhoisted", "Lflat", "Lpaths", "Lunrolled", "Ltransfers", "Lresolved", "Lerased", "Linstances", "Lmono", "Ltyped", "Lfolded",
           "Lrouted", "Lscheduled"]
