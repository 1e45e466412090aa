"""torch.utils.backcompat's switches: ``broadcast_warning`` and ``keepdim_warning``, each with an
``enabled`` flag (False by default). Old scripts set them to be warned where broadcasting or
keepdim changed behaviour in torch 0.2; torch 2.13 keeps the flags and warns for neither, and so
does tensorlib: setting them is accepted and remembered, nothing else."""


class Warning:  # noqa: A001  (torch's name)
    """One legacy warning switch: ``enabled`` reads and sets it."""

    def __init__(self):
        self.enabled = False


broadcast_warning = Warning()
keepdim_warning = Warning()
