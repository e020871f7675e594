"""The ILs of both lanes, each a delta of the one before, one module each named after the IL it
declares (`lrouted.py` declares `Lrouted`); the chain's order is the pipelines'
(`nano-vx --list-passes`). The front end's ILs up to Lscheduled are exported by name."""

from .lsrc import Lsrc
from .lonefile import Lonefile
from .linitialised import Linitialised
from .lshaped import Lshaped
from .lplain import Lplain
from .lwhile import Lwhile
from .lunpacked import Lunpacked
from .lhoisted import Lhoisted
from .ltraitless import Ltraitless
from .lflat import Lflat
from .lpaths import Lpaths
from .lunrolled import Lunrolled
from .ltransfers import Ltransfers
from .lresolved import Lresolved
from .lerased import Lerased
from .linstances import Linstances
from .lmono import Lmono
from .ltyped import Ltyped
from .lfolded import Lfolded
from .lrouted import Lrouted
from .lscheduled import Lscheduled

__all__ = ["Lsrc", "Lonefile", "Linitialised", "Lshaped", "Lplain", "Lwhile", "Lunpacked", "Lhoisted", "Ltraitless", "Lflat", "Lpaths", "Lunrolled", "Ltransfers", "Lresolved", "Lerased", "Linstances", "Lmono", "Ltyped", "Lfolded",
           "Lrouted", "Lscheduled"]
