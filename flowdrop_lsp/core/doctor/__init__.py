"""The Doctor's backend, as plain data: what FlowDrop's visual editor asks (docs/doctor.md).

`DoctorService` judges a draft (the workflow JSON the editor would save) as `check` judges the
same workflow in its site, and answers its problems, each with remedies whose operations the
editor applies. The HTTP front (`flowdrop_lsp/doctor/`) only translates requests to it."""

from flowdrop_lsp.core.doctor.service import (
    BadRemedy,
    DoctorService,
    ProblemGone,
)

__all__ = ["BadRemedy", "DoctorService", "ProblemGone"]
